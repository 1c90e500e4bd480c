/**
 * Human-facing output of the CLI and the dashboard shows control characters
 * escaped (`\x1b`, `\u202e`), keeping line breaks, tabs and, where asked,
 * boulder's own colours. The rule itself is pure and lives in
 * `core/control-text.ts`, where the adapters use it too.
 */
import { escapeControls } from "../core/control-text.js";

export function terminalSafe(text: string, options: { keepOwnColours?: boolean } = {}): string {
	return escapeControls(text, options);
}
