/**
 * Whether a run's series shows no movement above its noise: every analysed frame's value is at or below the noise
 * top. Then the threshold is k × that (0 for a still video), nothing can be detected, and the chart is a flat line on
 * a nominal scale — the page says so in words instead of leaving "Threshold 0" to be guessed at.
 */
export function noMovementAboveNoise(values: ArrayLike<number>, noiseTop: number | null | undefined): boolean {
  if (noiseTop == null || !Number.isFinite(noiseTop)) return false;
  let analysed = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) continue;
    analysed++;
    if (value > noiseTop) return false;
  }
  return analysed > 0;
}
