/**
 * What a name the user typed or sent never keeps: C0 controls and DEL (Postgres refuses a NUL in
 * text; CR/LF forge lines in logs and e-mails), C1 controls (terminal escapes), and the bidi
 * embeddings, overrides and isolates that make "evil\u202Ekpa.exe" read as "evilexe.apk".
 */
// eslint-disable-next-line no-control-regex
export const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
