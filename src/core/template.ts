/**
 * The one templating rule of boulder's texts: `{{name}}` is the field's
 * value, or nothing. A leaf, so any text of core can use it.
 */
export function fillTemplate(template: string, fields: Record<string, string>): string {
	return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => fields[name] ?? "");
}
