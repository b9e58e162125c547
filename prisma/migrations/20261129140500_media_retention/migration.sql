-- Messages holding a kept copy (or trying to), by age: RETENTION_MEDIA releases the old ones without
-- walking every message older than it, most of which hold none.
CREATE INDEX "Message_kept_media_idx" ON "Message"("createdAt") WHERE "mediaState" IS NOT NULL;

-- Messages deleted for everyone that still hold a kept copy: released at the next retention pass.
CREATE INDEX "Message_deleted_media_idx" ON "Message"("deletedAt") WHERE "mediaState" IS NOT NULL AND "deletedAt" IS NOT NULL;
