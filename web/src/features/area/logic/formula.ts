// Formulas are written once, as templates with {name} placeholders: filled with symbols they
// are the formula, filled with numbers they are the formula with the values put in.

/**
 * Replaces each {name} in the template with text(name). A value that is not a plain number
 * (scientific notation, a minus sign) is parenthesised where it is squared or could be misread,
 * so that 1.2e-7 squared reads (1.2e-7)² and not 1.2e-7².
 */
export function fill(template: string, text: (name: string) => string): string {
  return template.replace(/\{(\w+)\}(²?)/g, (_, name: string, squared: string) => {
    const t = text(name);
    return (squared && !isPlainNumber(t)) || /^[-−]/.test(t) ? `(${t})${squared}` : `${t}${squared}`;
  });
}

// Digits in any script, with decimal and grouping marks; nothing that changes how a power binds.
function isPlainNumber(text: string): boolean {
  return /^[\p{Nd}.,'\s\u066B\u066C]+$/u.test(text) || /^\p{L}$/u.test(text);
}
