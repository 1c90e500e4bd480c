/**
 * Imported first by the hook program: zod compiles a fast parser for each
 * object schema on its first use, which pays off in a long-lived process and
 * only costs in a hook that parses each schema once and exits.
 */
import { z } from "../../core/zod.js";

z.config({ jitless: true });
