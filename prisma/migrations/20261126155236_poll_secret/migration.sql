-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "pollSecret" BYTEA;
