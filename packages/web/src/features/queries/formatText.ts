// Format button: SQL through sql-formatter, JSON re-indented; other syntaxes are not supported.
import { format } from "sql-formatter";

export function canFormat(syntax: string): boolean {
  return syntax === "sql" || syntax === "json";
}

export function formatQueryText(text: string, syntax: string): string {
  if (syntax === "json") return JSON.stringify(JSON.parse(text), null, 2);
  return format(text, { language: "sql", keywordCase: "upper" });
}
