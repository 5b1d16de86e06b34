import { useMemo } from 'react';
import qrcode from 'qrcode-generator';

/** The quiet zone the QR standard asks for around the code, in modules. */
const QUIET_ZONE = 4;

/** The dark modules of a QR code as one SVG path: a unit square per module, in module coordinates. */
export function qrPath(text: string): { size: number; d: string } {
  // Level M survives a worn or creased printout while keeping a verification link in a small code.
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  let d = '';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (code.isDark(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: count + QUIET_ZONE * 2, d };
}

/** A QR code of `value`, drawn as SVG so it prints sharp at any size. */
export function QrCode({ value, label, className = '' }: { value: string; label: string; className?: string }) {
  const { size, d } = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={className}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
