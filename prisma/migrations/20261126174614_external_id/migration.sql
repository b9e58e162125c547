-- The credentials engine's own id of what an instance links: renamed, so existing rows keep their value.
ALTER TABLE "Instance" RENAME COLUMN "cloudPhoneNumberId" TO "externalId";

ALTER INDEX "Instance_cloudPhoneNumberId_idx" RENAME TO "Instance_externalId_idx";
