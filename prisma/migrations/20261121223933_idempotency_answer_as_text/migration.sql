-- AlterTable
ALTER TABLE "IdempotencyRecord" ALTER COLUMN "responseBody" SET DATA TYPE TEXT;
