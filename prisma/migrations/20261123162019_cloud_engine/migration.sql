-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "cloudPhoneNumberId" TEXT;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "content" JSONB;

-- CreateIndex
CREATE INDEX "Instance_cloudPhoneNumberId_idx" ON "Instance"("cloudPhoneNumberId");
