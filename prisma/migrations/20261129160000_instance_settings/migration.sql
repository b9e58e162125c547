-- Instance settings (docs/settings.md): calls, presence, reading, ignoring and sending, as one JSON value;
-- and the hold the network put on its sending (a reach-out timelock, error 463) until a time.
ALTER TABLE "Instance" ADD COLUMN "settings" JSONB;
ALTER TABLE "Instance" ADD COLUMN "restrictedUntil" TIMESTAMPTZ(3);
ALTER TABLE "Instance" ADD COLUMN "restrictedReason" TEXT;
