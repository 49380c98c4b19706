import { describeSuite } from "./suite-checks.js";

describeSuite("0.1.16", ["initialize", "auth/metadata-default"]);
