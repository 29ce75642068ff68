import { Circle, MousePointer2, Pentagon, Ruler, Square } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { Size } from '@/components/player/picture-geometry';
import { cn } from '@/lib/utils';
import { addExclusion, addZone, deleteShape, type Layout } from '../zones';
import { type Target, type Tool, ZoneCanvas } from './zone-canvas';

const TOOLS: { tool: Tool; label: string; icon: ReactNode; hint: string }[] = [
  {
    tool: 'select',
    label: 'Select',
    icon: <MousePointer2 aria-hidden="true" />,
    hint: 'Click a shape to select it; drag it or its corners; Delete removes it.',
  },
  {
    tool: 'polygon',
    label: 'Polygon',
    icon: <Pentagon aria-hidden="true" />,
    hint: 'Click each corner; click the first one or press Enter to close. Escape cancels, Backspace undoes a point.',
  },
  {
    tool: 'rectangle',
    label: 'Rectangle',
    icon: <Square aria-hidden="true" />,
    hint: 'Drag from one corner to the opposite one.',
  },
  {
    tool: 'ellipse',
    label: 'Ellipse',
    icon: <Circle aria-hidden="true" />,
    hint: 'Drag the box the ellipse fits in (it becomes a 32-point polygon).',
  },
  {
    tool: 'scale',
    label: 'Scale line',
    icon: <Ruler aria-hidden="true" />,
    hint: 'Click both ends of something of known length (an arena wall), then type its length.',
  },
];

/**
 * The zone editor's drawing half: the tools, what the polygon tools draw (zones or exclusion regions), and the
 * player picture with the drawing layer. The page passes the player element (`renderPlayer`) so the editor owns
 * no video; the shape list beside it (ShapeList) edits names, colours and the scale's length.
 */
export function ZoneEditor({
  picture,
  layout,
  onChange,
  selectedId,
  onSelect,
  renderPlayer,
}: {
  picture: Size;
  layout: Layout;
  onChange: (layout: Layout) => void;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** The player with `overlay` in its overlay slot. */
  renderPlayer: (overlay: ReactNode) => ReactNode;
}) {
  const [tool, setTool] = useState<Tool>('polygon');
  const [target, setTarget] = useState<Target>('zone');
  const hint = TOOLS.find((item) => item.tool === tool)?.hint;

  return (
    <div className="grid grid-cols-1 gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <fieldset aria-label="Drawing tool" className="inline-flex flex-wrap rounded-md border p-0.5">
          {TOOLS.map((item) => (
            <button
              key={item.tool}
              type="button"
              aria-pressed={tool === item.tool}
              onClick={() => setTool(item.tool)}
              className={cn(
                'inline-flex h-8 items-center gap-1.5 rounded-sm px-2.5 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&_svg]:size-4',
                tool === item.tool ? 'bg-primary text-primary-foreground' : 'hover:bg-muted',
              )}
            >
              {item.icon}
              {item.label}
            </button>
          ))}
        </fieldset>
        {tool === 'polygon' || tool === 'rectangle' || tool === 'ellipse' ? (
          <fieldset aria-label="Shape draws" className="inline-flex rounded-md border p-0.5 text-sm">
            {(
              [
                ['zone', 'Zone'],
                ['exclusion', 'Exclusion region'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={target === value}
                onClick={() => setTarget(value)}
                className={cn(
                  'h-8 rounded-sm px-2.5 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  target === value ? 'bg-secondary font-medium' : 'text-muted-foreground hover:bg-muted',
                )}
              >
                {label}
              </button>
            ))}
          </fieldset>
        ) : null}
      </div>
      <p className="text-muted-foreground text-xs" data-testid="tool-hint">
        {hint}
      </p>
      {renderPlayer(
        <ZoneCanvas
          // Another tool starts afresh: a half-drawn polygon or scale line is dropped.
          key={tool}
          picture={picture}
          layout={layout}
          tool={tool}
          target={target}
          selectedId={selectedId}
          onChange={onChange}
          onSelect={onSelect}
          onDelete={(id) => {
            onChange(deleteShape(layout, id));
            onSelect(null);
          }}
          onFinish={(points) => {
            const added = target === 'zone' ? addZone(layout, points) : addExclusion(layout, points);
            onChange(added.layout);
            onSelect(added.id);
          }}
          onScale={(a, b) => {
            onChange({
              ...layout,
              scale: { a, b, length: layout.scale?.length ?? '', unit: layout.scale?.unit ?? 'cm' },
            });
            setTool('select');
          }}
        />,
      )}
    </div>
  );
}
