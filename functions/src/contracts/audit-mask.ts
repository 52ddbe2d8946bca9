/**
 * What a masked value reads as in the audit trail (the API, the CSV and the tab). Apart from
 * contracts/audit.ts so the code that records changes (every function that audits) does not load
 * the trail's query schemas and action lists: the external API's cold start stays under 500 KB.
 */
export const MASKED = '••••••';
