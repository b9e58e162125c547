-- CreateEnum
CREATE TYPE "ChatKind" AS ENUM ('direct', 'group');

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "historySync" JSONB,
ADD COLUMN     "historyProgress" JSONB;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "chatId" TEXT,
ADD COLUMN     "history" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Chat" (
    "instanceId" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "kind" "ChatKind" NOT NULL,
    "subject" TEXT,
    "lastMessageId" UUID,
    "activityAt" TIMESTAMPTZ(3) NOT NULL,
    "unreadCount" INTEGER NOT NULL DEFAULT 0,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "mutedUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Chat_pkey" PRIMARY KEY ("instanceId","id")
);

-- CreateTable
CREATE TABLE "Contact" (
    "instanceId" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "phone" TEXT,
    "lid" TEXT,
    "name" TEXT,
    "pushName" TEXT,
    "onNetwork" BOOLEAN,
    "business" BOOLEAN NOT NULL DEFAULT false,
    "about" TEXT,
    "blocked" BOOLEAN NOT NULL DEFAULT false,
    "pictureUrl" TEXT,
    "profileExpiresAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Contact_pkey" PRIMARY KEY ("instanceId","id")
);

-- CreateIndex
CREATE INDEX "Chat_instanceId_pinned_activityAt_id_idx" ON "Chat"("instanceId", "pinned" DESC, "activityAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Chat_lastMessageId_idx" ON "Chat"("lastMessageId");

-- CreateIndex
CREATE INDEX "Chat_tenantId_idx" ON "Chat"("tenantId");

-- CreateIndex
CREATE INDEX "Contact_instanceId_lid_idx" ON "Contact"("instanceId", "lid");

-- CreateIndex
CREATE INDEX "Message_instanceId_chatId_createdAt_id_idx" ON "Message"("instanceId", "chatId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "Chat" ADD CONSTRAINT "Chat_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chat" ADD CONSTRAINT "Chat_lastMessageId_fkey" FOREIGN KEY ("lastMessageId") REFERENCES "Message"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Contact" ADD CONSTRAINT "Contact_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "Instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;
