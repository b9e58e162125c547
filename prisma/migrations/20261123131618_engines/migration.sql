-- AlterTable
ALTER TABLE "Instance" DROP COLUMN "qrAttempts",
ADD COLUMN     "lastDisconnectAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastDisconnectReason" TEXT,
ADD COLUMN     "logoutPending" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "pairingCode" TEXT,
ADD COLUMN     "pairingCodeExpiresAt" TIMESTAMPTZ(3),
ADD COLUMN     "pairingPhone" TEXT,
ADD COLUMN     "pairingSince" TIMESTAMPTZ(3),
ALTER COLUMN "engine" SET DEFAULT 'CHAT-SANDBOX';

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "networkMessageId" TEXT;

-- CreateTable
CREATE TABLE "EngineKey" (
    "instanceId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "value" BYTEA NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EngineKey_pkey" PRIMARY KEY ("instanceId","type","id")
);

-- CreateTable
CREATE TABLE "EngineStateKeyCheck" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "sealed" BYTEA NOT NULL,

    CONSTRAINT "EngineStateKeyCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Instance_pairingCode_key" ON "Instance"("pairingCode");

-- CreateIndex
CREATE UNIQUE INDEX "Message_instanceId_networkMessageId_key" ON "Message"("instanceId", "networkMessageId");

-- AddForeignKey
ALTER TABLE "EngineKey" ADD CONSTRAINT "EngineKey_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Data: the integration id every instance shows, pairings under way keep running (the engine now
-- drives them), and sandbox messages already handed over are known to the network by the gateway's id.
UPDATE "Instance" SET "engine" = 'CHAT-SANDBOX' WHERE "engine" = 'sandbox';
UPDATE "Instance" SET "pairingSince" = now() WHERE "state" IN ('created', 'qr');
UPDATE "Message" SET "networkMessageId" = "id"::text WHERE "direction" = 'out' AND "status" <> 'queued' AND "instanceId" IS NOT NULL;
