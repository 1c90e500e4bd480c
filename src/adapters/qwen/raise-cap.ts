/**
 * `boulder install qwen --raise-cap`: Qwen Code overrides the Stop hook at
 * its `stopHookBlockingCap` (8 by default, so 7 continuations per prompt),
 * and a headless run (`qwen -p`) is one prompt, so a longer list cannot
 * finish there. The flag sets the cap to its maximum in the settings file the
 * install writes; without the flag boulder only says so. boulder's own budgets
 * and stagnation guard still bound every run.
 *
 * Contract: a pure text edit, as `hooks-file.ts`: the user's other settings
 * keep every byte; a file that is not a settings object is refused.
 */
import { applyEdits } from "jsonc-parser";
import { parseSettings } from "../shared/hooks-file.js";
import { addMemberEdit, memberOf, removal } from "../shared/settings-json.js";
import { CAP_SETTING, MAX_CAP } from "./cap.js";
import { INSTALL_TEXT } from "./messages.js";

/** Pure: the settings text with `stopHookBlockingCap` at its maximum; the same bytes when it already is. */
export function withRaisedCap(text: string, file: string): { text: string; changed: boolean } {
	const base = text.trim() === "" ? "{}\n" : text;
	const root = parseSettings({ text: INSTALL_TEXT }, base, file);
	const current = memberOf(root, CAP_SETTING);
	if (current === undefined) {
		return { text: applyEdits(base, [addMemberEdit(base, root, CAP_SETTING, MAX_CAP)]), changed: true };
	}
	if (current.value === MAX_CAP) return { text, changed: false };
	const edit = { ...removal(current.offset, current.offset + current.length), content: String(MAX_CAP) };
	return { text: applyEdits(base, [edit]), changed: true };
}
