-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "contacts" JSONB,
ADD COLUMN     "fromLid" TEXT,
ADD COLUMN     "media" JSONB,
ADD COLUMN     "quoted" JSONB,
ADD COLUMN     "reaction" JSONB;

-- CreateTable
CREATE TABLE "SandboxMedia" (
    "id" UUID NOT NULL,
    "bytes" BYTEA NOT NULL,
    "mimetype" TEXT NOT NULL,
    "expiredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxMedia_pkey" PRIMARY KEY ("id")
);
