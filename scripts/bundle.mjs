/**
 * Runs tsdown (tsdown.config.ts) through its API rather than its command
 * line, whose start-up warns on every Node older than 22.18 although the
 * bundles it writes target Node 20, which boulder supports.
 */
import { build } from "tsdown";

await build({ logLevel: "warn" });
