/**
 * Checks the harness adapters contribute: one line each, e.g. a check that
 * the Claude Code hooks are installed and match this boulder's version.
 */
import { claudeCodeDoctorCheck } from "../../adapters/claude-code/doctor.js";
import { openCodeDoctorCheck } from "../../adapters/opencode/doctor.js";
import type { DoctorCheck } from "./types.js";

export const ADAPTER_CHECKS: DoctorCheck[] = [claudeCodeDoctorCheck, openCodeDoctorCheck];
