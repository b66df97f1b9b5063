// How loudly one kind of annotation is drawn, from its `chainlens.annotations.<kind>` setting.
// Pure (no 'vscode'): the controller reads the setting, the painter picks the decoration type.

/** `full`: background, gutter mark and overview ruler; `quiet`: gutter mark and ruler only; `off`: neither, nor a Problems entry. */
export type AnnotationLevel = 'full' | 'quiet' | 'off';

/** The setting's value; `true`/`false` are what these settings were before they had three levels. Anything else is the default. */
export function annotationLevel(setting: unknown): AnnotationLevel {
  if (setting === false || setting === 'off') return 'off';
  return setting === 'quiet' ? 'quiet' : 'full';
}
