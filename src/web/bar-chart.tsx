export interface BarChartProps {
  /** Names the chart for assistive technology and heads its data table. */
  title: string;
  /** Each bar: its period in full (the table's) and shortened under the bar. */
  bars: readonly { label: string; short: string; value: number }[];
  /** How the table's value column is headed ("Visits"). */
  valueLabel: string;
}

const WIDTH = 640;
const HEIGHT = 200;
const TOP = 16;
const BOTTOM = 28;
const LEFT = 8;

/**
 * A bar chart drawn on the server as inline SVG (no script, no image request), with its figures in a data
 * table under a disclosure for those who cannot see it.
 */
export function BarChart({ title, bars, valueLabel }: BarChartProps) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = (WIDTH - LEFT * 2) / Math.max(1, bars.length);
  const barWidth = Math.max(2, slot * 0.7);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const total = bars.reduce((sum, b) => sum + b.value, 0);
  const summary = `${title}: ${total} ${valueLabel.toLowerCase()} in all; the figures are in the table below.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={summary}>
        <line class="axis" x1={LEFT} x2={WIDTH - LEFT} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        {bars.map((bar, i) => {
          const h = Math.round((bar.value / max) * plotHeight);
          const x = LEFT + i * slot + (slot - barWidth) / 2;
          return (
            <g key={bar.label}>
              <rect class="bar" x={x.toFixed(1)} y={HEIGHT - BOTTOM - h} width={barWidth.toFixed(1)} height={h}>
                <title>{`${bar.label}: ${bar.value}`}</title>
              </rect>
              {bar.value > 0 ? (
                <text x={(x + barWidth / 2).toFixed(1)} y={HEIGHT - BOTTOM - h - 4} text-anchor="middle">
                  {bar.value}
                </text>
              ) : null}
              <text x={(x + barWidth / 2).toFixed(1)} y={HEIGHT - 10} text-anchor="middle">
                {bar.short}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <details>
          <summary>{title} as a table</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">{valueLabel}</th>
              </tr>
            </thead>
            <tbody>
              {bars.map((bar) => (
                <tr key={bar.label}>
                  <td>{bar.label}</td>
                  <td>{bar.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
