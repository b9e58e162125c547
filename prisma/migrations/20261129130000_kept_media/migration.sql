-- CreateEnum
CREATE TYPE "MediaKeepState" AS ENUM ('pending', 'stored', 'failed');

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "mediaPolicy" JSONB;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "mediaSha256" TEXT,
ADD COLUMN     "mediaState" "MediaKeepState",
ADD COLUMN     "mediaAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "mediaRetryAt" TIMESTAMPTZ(3),
ADD COLUMN     "mediaError" JSONB;

-- AlterTable
ALTER TABLE "GatewayNode" ADD COLUMN     "mediaStore" TEXT;

-- CreateTable
CREATE TABLE "MediaBlob" (
    "sha256" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mimetype" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MediaBlob_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "GatewaySecret" (
    "name" TEXT NOT NULL,
    "value" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewaySecret_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "Message_mediaSha256_idx" ON "Message"("mediaSha256");

-- CreateIndex
CREATE INDEX "Message_media_pending_idx" ON "Message"("mediaRetryAt") WHERE "mediaState" = 'pending';
