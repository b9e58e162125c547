-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "previousWebhookSecret" TEXT,
ADD COLUMN     "webhookSecretRotatedAt" TIMESTAMPTZ(3);
