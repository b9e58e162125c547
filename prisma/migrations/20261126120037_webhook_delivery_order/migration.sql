-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "orderKey" TEXT;

-- CreateIndex
CREATE INDEX "WebhookDelivery_pending_order_idx" ON "WebhookDelivery"("orderKey") WHERE (status = 'pending' AND "orderKey" IS NOT NULL);
