import { describeSuite } from "./suite-checks.js";

// The pre-release suite with `--spec-version 2026-07-28`: our client speaks 2026-07-28 on engine-2026.
describeSuite("2026-07-28", ["request-metadata", "sep-2322-client-request-state", "auth/iss-supported"]);
