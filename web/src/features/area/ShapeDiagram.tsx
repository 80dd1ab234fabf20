// A labelled sketch of each shape: the letters are the field symbols of the shape table, so
// the diagram, the form and the formula name the same lengths the same way.
import type { ReactNode } from 'react';
import type { ShapeId } from './logic/shapes';

const L = ({ x, y, children }: { x: number; y: number; children: ReactNode }) => (
  <text x={x} y={y} className="diagram-label" textAnchor="middle" dominantBaseline="central">
    {children}
  </text>
);
/** A measurement drawn inside or beside the shape (a height, a radius, a diagonal). */
const M = ({ d }: { d: string }) => <path d={d} className="diagram-measure" />;
const Shape = ({ d }: { d: string }) => <path d={d} className="diagram-shape" />;
const Arc = ({ d }: { d: string }) => <path d={d} className="diagram-angle" />;

const triangle = 'M30 130 L210 130 L140 30 Z';
const parallelogram = 'M40 130 L170 130 L200 40 L70 40 Z';
const rhombus = 'M120 15 L195 80 L120 145 L45 80 Z';
const kite = 'M120 15 L175 60 L120 145 L65 60 Z';

const diagrams: Record<ShapeId, ReactNode> = {
  square: (
    <>
      <Shape d="M70 30 h100 v100 h-100 Z" />
      <L x={120} y={146}>s</L>
    </>
  ),
  rectangle: (
    <>
      <Shape d="M40 40 h160 v80 h-160 Z" />
      <L x={120} y={136}>l</L>
      <L x={214} y={80}>w</L>
    </>
  ),
  triangle: (
    <>
      <Shape d={triangle} />
      <M d="M140 30 V130" />
      <L x={120} y={146}>b</L>
      <L x={152} y={84}>h</L>
    </>
  ),
  'triangle-sss': (
    <>
      <Shape d={triangle} />
      <L x={72} y={72}>a</L>
      <L x={188} y={76}>b</L>
      <L x={120} y={146}>c</L>
    </>
  ),
  'triangle-sas': (
    <>
      <Shape d={triangle} />
      <Arc d="M60 130 A30 30 0 0 0 55 113" />
      <L x={72} y={120}>γ</L>
      <L x={72} y={72}>b</L>
      <L x={120} y={146}>a</L>
    </>
  ),
  'right-triangle': (
    <>
      <Shape d="M50 130 L190 130 L50 30 Z" />
      <M d="M50 116 h14 v14" />
      <L x={36} y={80}>a</L>
      <L x={120} y={146}>b</L>
    </>
  ),
  circle: (
    <>
      <Shape d="M60 80 a60 60 0 1 0 120 0 a60 60 0 1 0 -120 0 Z" />
      <M d="M120 80 H180" />
      <L x={150} y={68}>r</L>
    </>
  ),
  'circle-diameter': (
    <>
      <Shape d="M60 80 a60 60 0 1 0 120 0 a60 60 0 1 0 -120 0 Z" />
      <M d="M60 80 H180" />
      <L x={120} y={68}>d</L>
    </>
  ),
  semicircle: (
    <>
      <Shape d="M40 120 A80 80 0 0 1 200 120 Z" />
      <M d="M120 120 H200" />
      <L x={160} y={134}>r</L>
    </>
  ),
  'quarter-circle': (
    <>
      <Shape d="M60 130 V20 A110 110 0 0 1 170 130 Z" />
      <L x={115} y={144}>r</L>
      <L x={46} y={75}>r</L>
    </>
  ),
  sector: (
    <>
      <Shape d="M70 130 L190 130 A120 120 0 0 0 130 26 Z" />
      <Arc d="M100 130 A30 30 0 0 0 85 104" />
      <L x={108} y={114}>θ</L>
      <L x={130} y={144}>r</L>
    </>
  ),
  annulus: (
    <>
      <path
        className="diagram-shape"
        fillRule="evenodd"
        d="M50 80 a70 70 0 1 0 140 0 a70 70 0 1 0 -140 0 Z M85 80 a35 35 0 1 0 70 0 a35 35 0 1 0 -70 0 Z"
      />
      <M d="M120 80 V10" />
      <M d="M120 80 H155" />
      <L x={110} y={32}>R</L>
      <L x={138} y={92}>r</L>
    </>
  ),
  ellipse: (
    <>
      <Shape d="M30 80 a90 55 0 1 0 180 0 a90 55 0 1 0 -180 0 Z" />
      <M d="M120 80 H210" />
      <M d="M120 80 V25" />
      <L x={165} y={92}>a</L>
      <L x={108} y={52}>b</L>
    </>
  ),
  trapezoid: (
    <>
      <Shape d="M70 40 L170 40 L210 130 L30 130 Z" />
      <M d="M150 40 V130" />
      <L x={120} y={146}>a</L>
      <L x={120} y={28}>b</L>
      <L x={162} y={86}>h</L>
      <L x={38} y={82}>c</L>
      <L x={204} y={82}>d</L>
    </>
  ),
  parallelogram: (
    <>
      <Shape d={parallelogram} />
      <M d="M100 40 V130" />
      <L x={105} y={146}>b</L>
      <L x={112} y={86}>h</L>
    </>
  ),
  'parallelogram-sas': (
    <>
      <Shape d={parallelogram} />
      <Arc d="M68 130 A28 28 0 0 0 49 103" />
      <L x={78} y={114}>α</L>
      <L x={105} y={146}>a</L>
      <L x={42} y={82}>b</L>
    </>
  ),
  rhombus: (
    <>
      <Shape d={rhombus} />
      <M d="M45 80 H195" />
      <M d="M120 15 V145" />
      <L x={160} y={70}>p</L>
      <L x={132} y={112}>q</L>
    </>
  ),
  'rhombus-side-angle': (
    <>
      <Shape d={rhombus} />
      <Arc d="M68 100 A30 30 0 0 0 68 60" />
      <L x={80} y={80}>α</L>
      <L x={70} y={126}>s</L>
    </>
  ),
  kite: (
    <>
      <Shape d={kite} />
      <M d="M65 60 H175" />
      <M d="M120 15 V145" />
      <L x={150} y={50}>p</L>
      <L x={132} y={104}>q</L>
      <L x={82} y={28}>a</L>
      <L x={166} y={110}>b</L>
    </>
  ),
  'regular-polygon': (
    <>
      <Shape d="M85 19 L155 19 L190 80 L155 141 L85 141 L50 80 Z" />
      <L x={120} y={8}>s</L>
      <L x={120} y={80}>n</L>
    </>
  ),
  polygon: (
    <>
      <Shape d="M40 130 L150 140 L200 70 L120 20 L60 60 Z" />
      {[
        [40, 130],
        [150, 140],
        [200, 70],
        [120, 20],
        [60, 60],
      ].map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r={4} className="diagram-point" />
      ))}
      <L x={26} y={140}>
        (x₁, y₁)
      </L>
      <L x={172} y={150}>
        (x₂, y₂)
      </L>
      <L x={214} y={58}>
        (x₃, y₃)
      </L>
    </>
  ),
};

export function ShapeDiagram({ shape, label }: { shape: ShapeId; label: string }) {
  return (
    <svg className="diagram" viewBox="0 0 240 160" role="img" aria-label={label}>
      {diagrams[shape]}
    </svg>
  );
}
