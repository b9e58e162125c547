-- CreateTable
CREATE TABLE "SandboxPast" (
    "phone" TEXT NOT NULL,
    "past" JSONB NOT NULL,
    "givenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SandboxPast_pkey" PRIMARY KEY ("phone")
);
