import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyLayout, type Layout } from '../zones';
import { ShapeList } from './shape-list';
import { ZoneEditor } from './zone-editor';

const picture = { width: 320, height: 240 };

/** The editor and the shape list over one layout, as the page has them; the layout is printed for the asserts. */
function Harness({ initial = emptyLayout() }: { initial?: Layout }) {
  const [layout, setLayout] = useState<Layout>(initial);
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <ZoneEditor
        picture={picture}
        layout={layout}
        onChange={setLayout}
        selectedId={selected}
        onSelect={setSelected}
        renderPlayer={(overlay) => <div>{overlay}</div>}
      />
      <ShapeList layout={layout} onChange={setLayout} selectedId={selected} onSelect={setSelected} errors={{}} />
      <output data-testid="layout">{JSON.stringify(layout)}</output>
    </>
  );
}

const current = (): Layout => JSON.parse(screen.getByTestId('layout').textContent ?? '{}');
const canvas = () => screen.getByTestId('zone-canvas');
/** The canvas is shown at twice the picture's size, from (100, 50) on the page: a video pixel is 2 screen pixels. */
const at = (x: number, y: number) => ({ button: 0, pointerId: 1, clientX: 100 + 2 * x, clientY: 50 + 2 * y });
const click = (x: number, y: number) => {
  fireEvent.pointerDown(canvas(), at(x, y));
  fireEvent.pointerUp(canvas(), at(x, y));
};
const drag = (from: [number, number], to: [number, number]) => {
  fireEvent.pointerDown(canvas(), at(...from));
  fireEvent.pointerMove(canvas(), at(...to));
  fireEvent.pointerUp(canvas(), at(...to));
};
const tool = (name: string) => userEvent.click(screen.getByRole('button', { name }));

beforeEach(() => {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue({
    left: 100,
    top: 50,
    width: 640,
    height: 480,
    right: 740,
    bottom: 530,
    x: 100,
    y: 50,
    toJSON: () => ({}),
  } as DOMRect);
  Object.defineProperty(Element.prototype, 'setPointerCapture', { configurable: true, value: vi.fn() });
});

describe('zone editor', () => {
  it('draws a polygon by clicks in video pixels, closed by clicking near the first point', async () => {
    render(<Harness />);
    click(10, 10);
    click(100, 10);
    click(100, 80);
    // 4 screen pixels from the first point (2 video pixels): within the closing distance.
    click(11, 11);
    expect(current().zones).toEqual([
      expect.objectContaining({
        name: 'Zone 1',
        points: [
          [10, 10],
          [100, 10],
          [100, 80],
        ],
      }),
    ]);
    expect(screen.getAllByTestId('zone-shape')).toHaveLength(1);
    expect((screen.getByLabelText('Name of zone 1') as HTMLInputElement).value).toBe('Zone 1');
  });

  it('closes a polygon with Enter, drops it with Escape and takes back a point with Backspace', async () => {
    render(<Harness />);
    click(0, 0);
    click(50, 0);
    fireEvent.keyDown(canvas(), { key: 'Enter' });
    expect(current().zones).toHaveLength(0);
    click(50, 50);
    click(60, 60);
    fireEvent.keyDown(canvas(), { key: 'Backspace' });
    fireEvent.keyDown(canvas(), { key: 'Enter' });
    expect(current().zones[0]!.points).toEqual([
      [0, 0],
      [50, 0],
      [50, 50],
    ]);
    click(200, 200);
    fireEvent.keyDown(canvas(), { key: 'Escape' });
    expect(screen.queryByTestId('draft')).toBeNull();
    // Another tool drops a half-drawn polygon.
    click(200, 200);
    expect(screen.getByTestId('draft')).toBeTruthy();
    await tool('Rectangle');
    expect(screen.queryByTestId('draft')).toBeNull();
  });

  it('makes rectangles and 32-point ellipses by dragging, as zones or exclusion regions', async () => {
    render(<Harness />);
    await tool('Rectangle');
    drag([20, 30], [120, 90]);
    expect(current().zones[0]!.points).toEqual([
      [20, 30],
      [120, 30],
      [120, 90],
      [20, 90],
    ]);
    await tool('Ellipse');
    await userEvent.click(screen.getByRole('button', { name: 'Exclusion region' }));
    drag([200, 100], [300, 200]);
    const ellipse = current().exclusions[0]!.points;
    expect(ellipse).toHaveLength(32);
    expect(ellipse[0]).toEqual([300, 150]);
    expect(screen.getAllByTestId('exclusion-row')).toHaveLength(1);
    // A drag shorter than the minimum makes nothing.
    drag([10, 10], [11, 40]);
    expect(current().exclusions).toHaveLength(1);
  });

  it('selects a zone, moves it, drags its vertex, and deletes it with Delete', async () => {
    render(<Harness />);
    await tool('Rectangle');
    drag([20, 20], [60, 60]);
    await tool('Select');
    // Click outside: nothing selected, no handles.
    click(200, 200);
    expect(screen.queryAllByTestId('vertex-handle')).toHaveLength(0);
    // Drag the body 10 px right, 5 down.
    fireEvent.pointerDown(canvas(), at(40, 40));
    fireEvent.pointerMove(canvas(), at(50, 45));
    fireEvent.pointerUp(canvas(), at(50, 45));
    expect(current().zones[0]!.points).toEqual([
      [30, 25],
      [70, 25],
      [70, 65],
      [30, 65],
    ]);
    expect(screen.getAllByTestId('vertex-handle')).toHaveLength(4);
    // Drag the bottom-right corner outwards, past the picture: it stops at the edge.
    fireEvent.pointerDown(canvas(), at(70, 65));
    fireEvent.pointerMove(canvas(), at(400, 100));
    fireEvent.pointerUp(canvas(), at(400, 100));
    expect(current().zones[0]!.points[2]).toEqual([320, 100]);
    fireEvent.keyDown(canvas(), { key: 'Delete' });
    expect(current().zones).toHaveLength(0);
  });

  it('draws the scale line by two clicks, takes its true length and unit, and removes it', async () => {
    render(<Harness />);
    await tool('Scale line');
    click(10, 100);
    click(110, 100);
    expect(current().scale).toEqual({ a: [10, 100], b: [110, 100], length: '', unit: 'cm' });
    expect(screen.getByTestId('scale-pixels').textContent).toBe('Line of 100.0 px');
    await userEvent.type(screen.getByLabelText('True length'), '40');
    await userEvent.selectOptions(screen.getByLabelText('Unit'), 'mm');
    expect(current().scale).toMatchObject({ length: '40', unit: 'mm' });
    // Back in select mode: an end drags.
    fireEvent.pointerDown(canvas(), at(110, 100));
    fireEvent.pointerMove(canvas(), at(130, 100));
    fireEvent.pointerUp(canvas(), at(130, 100));
    expect(screen.getByTestId('scale-pixels').textContent).toBe('Line of 120.0 px');
    // Removed: distances fall back to pixels, and the list says so.
    await userEvent.click(screen.getByRole('button', { name: 'Remove the scale' }));
    expect(current().scale).toBeNull();
    expect(screen.queryByTestId('scale-pixels')).toBeNull();
    expect(screen.getByText(/^No scale: distances and speeds are in pixels\./)).toBeTruthy();
  });

  it('names and colours zones in the list, flagging a duplicate name', async () => {
    render(<Harness />);
    await tool('Rectangle');
    drag([0, 0], [40, 40]);
    drag([100, 100], [140, 140]);
    const second = screen.getByLabelText('Name of zone 2');
    await userEvent.clear(second);
    await userEvent.type(second, 'zone 1');
    expect(screen.getByRole('alert').textContent).toBe('Another zone is already named “zone 1”.');
    expect(second.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Colour of zone 1'), { target: { value: '#123456' } });
    expect(current().zones[1]!.color).toBe('#123456');
    const rows = screen.getAllByTestId('zone-row');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Delete Zone 1' }));
    expect(current().zones.map((zone) => zone.name)).toEqual(['zone 1']);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
