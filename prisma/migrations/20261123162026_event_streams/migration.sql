-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "deliveryId" UUID,
ADD COLUMN     "payload" TEXT,
ADD COLUMN     "seq" BIGSERIAL NOT NULL,
ADD COLUMN     "streams" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "OutboxEvent_unpublished_idx" ON "OutboxEvent"("seq") WHERE (streams <> '{}');
