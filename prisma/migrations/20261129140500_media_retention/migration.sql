-- Messages holding a kept copy (or trying to), by age: RETENTION_MEDIA releases the old ones without
-- walking every message older than it, most of which hold none.
CREATE INDEX "Message_kept_media_idx" ON "Message"("createdAt") WHERE "mediaState" IS NOT NULL;

-- Messages deleted for everyone that still hold a kept copy: released at the next retention pass.
CREATE INDEX "Message_deleted_media_idx" ON "Message"("deletedAt") WHERE "mediaState" IS NOT NULL AND "deletedAt" IS NOT NULL;

-- Bytes a message may have stopped holding, due for the media sweep to look at: it looks at these,
-- and at a slice of the blobs each pass, never at every blob (docs/media.md, "Removing objects").
CREATE TABLE "MediaCheck" (
    "sha256" TEXT NOT NULL,
    "dueAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MediaCheck_pkey" PRIMARY KEY ("sha256")
);

CREATE INDEX "MediaCheck_dueAt_idx" ON "MediaCheck"("dueAt");
