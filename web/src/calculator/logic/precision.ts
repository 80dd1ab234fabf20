// How many decimals a calculator's results show: rounding is for display only.
export const precisionChoices = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'] as const;
export type Precision = (typeof precisionChoices)[number];
/** Up to 6 decimals, trailing zeros dropped: what the visitor sees unless they choose. */
export const defaultPrecision: Precision = '6';
