/**
 * Setup file of every tier: after each test, the temp folders `tempDir`
 * (test/state/helpers.ts) made for it are removed, in whichever file it ran.
 */
import { afterEach } from "vitest";
import { removeTempDirs } from "../state/helpers.js";

afterEach(removeTempDirs);
