-- AlterTable
ALTER TABLE "SandboxHandoff" ADD COLUMN     "content" JSONB;

-- CreateTable
CREATE TABLE "SandboxSignal" (
    "id" BIGSERIAL NOT NULL,
    "instanceId" UUID NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "networkMessageId" TEXT,
    "text" TEXT,
    "state" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxSignal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SandboxSignal_to_kind_at_idx" ON "SandboxSignal"("to", "kind", "at");

-- CreateIndex
CREATE INDEX "SandboxSignal_instanceId_idx" ON "SandboxSignal"("instanceId");
