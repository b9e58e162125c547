-- DropForeignKey
ALTER TABLE "OutboxEvent" DROP CONSTRAINT "OutboxEvent_instanceId_fkey";

-- DropForeignKey
ALTER TABLE "WebhookDelivery" DROP CONSTRAINT "WebhookDelivery_eventId_fkey";

-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "signing" JSONB;
