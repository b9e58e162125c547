-- CreateTable
CREATE TABLE "GatewayNode" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GatewayNode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InstanceLease" (
    "instanceId" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "token" BIGINT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "InstanceLease_pkey" PRIMARY KEY ("instanceId")
);

-- CreateTable
CREATE TABLE "SandboxHandoff" (
    "id" BIGSERIAL NOT NULL,
    "messageId" UUID NOT NULL,
    "instanceId" UUID NOT NULL,
    "to" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "text" TEXT,
    "mediaUrl" TEXT,
    "caption" TEXT,
    "node" TEXT NOT NULL,
    "token" BIGINT NOT NULL,
    "handedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxHandoff_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GatewayNode_lastSeen_idx" ON "GatewayNode"("lastSeen");

-- CreateIndex
CREATE INDEX "InstanceLease_owner_idx" ON "InstanceLease"("owner");

-- CreateIndex
CREATE INDEX "SandboxHandoff_to_handedAt_idx" ON "SandboxHandoff"("to", "handedAt");

-- CreateIndex
CREATE INDEX "SandboxHandoff_messageId_idx" ON "SandboxHandoff"("messageId");

-- AddForeignKey
ALTER TABLE "InstanceLease" ADD CONSTRAINT "InstanceLease_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What phones received before hand-offs were recorded: every outbound message that went out.
INSERT INTO "SandboxHandoff" ("messageId", "instanceId", "to", "from", "type", "text", "mediaUrl", "caption", "node", "token", "handedAt")
SELECT "id", "instanceId", "to", coalesce("from", ''), "type"::text, "text", "mediaUrl", "caption", '', 0, coalesce("sentAt", "createdAt")
FROM "Message"
WHERE "direction" = 'out' AND "status" IN ('sent', 'delivered', 'read') AND "instanceId" IS NOT NULL;
