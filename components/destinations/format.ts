/** A share of attempts in words: "100 %", "50 %", "97.3 %" (a tenth where it is not whole, so 99.96 % is not 100). */
export const percent = (rate: number) => {
  const value = rate * 100;
  return `${value.toFixed(Math.abs(value - Math.round(value)) < 1e-9 ? 0 : 1)} %`;
};
