-- DropIndex
DROP INDEX "Message_instanceId_status_idx";

-- DropIndex
DROP INDEX "Message_status_createdAt_idx";

-- CreateIndex
CREATE INDEX "Message_queued_by_instance_idx" ON "Message"("instanceId", "createdAt") WHERE (status = 'queued' AND direction = 'out');

-- CreateIndex
CREATE INDEX "Message_queued_idx" ON "Message"("createdAt") WHERE (status = 'queued' AND direction = 'out');
