const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
};

/**
 * Escapes text for an XML element or attribute value per decision E2: exactly `&`, `<`, `>`, `"`
 * and `'` are replaced (an entity already in the text is escaped again), everything else is kept.
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
