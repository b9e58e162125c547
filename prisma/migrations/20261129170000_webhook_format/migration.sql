-- The body an instance's webhook deliveries carry: the variant's own (gateway) or Evolution API's (docs/evolution.md).
ALTER TABLE "Instance" ADD COLUMN "webhookFormat" TEXT NOT NULL DEFAULT 'gateway';
