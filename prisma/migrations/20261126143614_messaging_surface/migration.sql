-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "editedAt" TIMESTAMPTZ(3),
ADD COLUMN     "fileName" TEXT,
ADD COLUMN     "group" JSONB,
ADD COLUMN     "mentions" JSONB,
ADD COLUMN     "poll" JSONB,
ADD COLUMN     "voice" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "MessageFile" (
    "messageId" UUID NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "MessageFile_pkey" PRIMARY KEY ("messageId")
);

-- AddForeignKey
ALTER TABLE "MessageFile" ADD CONSTRAINT "MessageFile_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
