;; The per-frame hot loops of intensity-change detection in WebAssembly SIMD (16 bytes or 8 sums per step).
;; Same integer arithmetic as intensity.ts's reference loops, so the results are identical (tests compare them).
;; Compiled by `npm run gen:kernel` into kernel.wasm.ts (committed; kernel.test.ts fails when they differ).
;;
;; Buffers live in the memory the caller gives (one per counter) at offsets it chooses, each padded by at least 64 bytes so the
;; vector loops may read and write a little past a row's end (what they write there is overwritten or unused).
(module
  (import "env" "memory" (memory 1))

  ;; In place: limited-range luma (16–235) → 0–255, equal to ffmpeg's gray conversion for all 256 inputs:
  ;; v = y − 16; out = clamp(v + ((v × 5386 + 2^14) >> 15), 0, 255) = clamp(round(v × 255 / 219)).
  (func (export "map_limited") (param $p i32) (param $n i32)
    (local $end i32) (local $v v128) (local $lo v128) (local $hi v128)
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $lo (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $v)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $hi (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $v)) (v128.const i16x8 16 16 16 16 16 16 16 16)))
        (local.set $lo (i16x8.add (local.get $lo)
          (i16x8.q15mulr_sat_s (local.get $lo) (v128.const i16x8 5386 5386 5386 5386 5386 5386 5386 5386))))
        (local.set $hi (i16x8.add (local.get $hi)
          (i16x8.q15mulr_sat_s (local.get $hi) (v128.const i16x8 5386 5386 5386 5386 5386 5386 5386 5386))))
        (v128.store (local.get $p) (i8x16.narrow_i16x8_u (local.get $lo) (local.get $hi)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next))))

  ;; 3×3 sums with replicated edges of a width × height gray frame into 16-bit sums.
  ;; $cols holds one row's column sums at cols[1..width], with cols[0] and cols[width + 1] replicated.
  (func (export "box_sums") (param $frame i32) (param $sums i32) (param $cols i32) (param $width i32) (param $height i32)
    (local $y i32) (local $x i32) (local $above i32) (local $row i32) (local $below i32)
    (local $a v128) (local $b v128) (local $c v128) (local $col i32) (local $out i32)
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $height)))
        (local.set $row (i32.add (local.get $frame) (i32.mul (local.get $y) (local.get $width))))
        (local.set $above (select (i32.sub (local.get $row) (local.get $width)) (local.get $row) (local.get $y)))
        (local.set $below
          (select (i32.add (local.get $row) (local.get $width)) (local.get $row)
            (i32.lt_u (i32.add (local.get $y) (i32.const 1)) (local.get $height))))
        ;; Column sums, 16 pixels per step, stored from cols[1].
        (local.set $x (i32.const 0))
        (block $cols_done
          (loop $cols_loop
            (br_if $cols_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $a (v128.load (i32.add (local.get $above) (local.get $x))))
            (local.set $b (v128.load (i32.add (local.get $row) (local.get $x))))
            (local.set $c (v128.load (i32.add (local.get $below) (local.get $x))))
            (local.set $col (i32.add (local.get $cols) (i32.shl (i32.add (local.get $x) (i32.const 1)) (i32.const 1))))
            (v128.store (local.get $col)
              (i16x8.add (i16x8.add (i16x8.extend_low_i8x16_u (local.get $a)) (i16x8.extend_low_i8x16_u (local.get $b)))
                (i16x8.extend_low_i8x16_u (local.get $c))))
            (v128.store offset=16 (local.get $col)
              (i16x8.add (i16x8.add (i16x8.extend_high_i8x16_u (local.get $a)) (i16x8.extend_high_i8x16_u (local.get $b)))
                (i16x8.extend_high_i8x16_u (local.get $c))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $cols_loop)))
        ;; Replicated edges.
        (i32.store16 (local.get $cols) (i32.load16_u offset=2 (local.get $cols)))
        (i32.store16 (i32.add (local.get $cols) (i32.shl (i32.add (local.get $width) (i32.const 1)) (i32.const 1)))
          (i32.load16_u (i32.add (local.get $cols) (i32.shl (local.get $width) (i32.const 1)))))
        ;; Row sums of three neighbouring columns, 8 pixels per step.
        (local.set $out (i32.add (local.get $sums) (i32.shl (i32.mul (local.get $y) (local.get $width)) (i32.const 1))))
        (local.set $x (i32.const 0))
        (block $sums_done
          (loop $sums_loop
            (br_if $sums_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $col (i32.add (local.get $cols) (i32.shl (local.get $x) (i32.const 1))))
            (v128.store (i32.add (local.get $out) (i32.shl (local.get $x) (i32.const 1)))
              (i16x8.add (i16x8.add (v128.load (local.get $col)) (v128.load offset=2 (local.get $col)))
                (v128.load offset=4 (local.get $col))))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $sums_loop)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))

  ;; Pixels of the ROI whose sums differ by more than $limit (9 × threshold) between two frames.
  (func (export "count_changed") (param $current i32) (param $previous i32) (param $width i32)
    (param $rx i32) (param $ry i32) (param $rw i32) (param $rh i32) (param $limit i32) (result i32)
    (local $y i32) (local $x i32) (local $offset i32) (local $total i32) (local $acc v128) (local $limits v128)
    (local $vector_end i32) (local $d i32)
    (local.set $limits (i16x8.splat (local.get $limit)))
    (local.set $vector_end (i32.and (local.get $rw) (i32.const -8)))
    (local.set $y (local.get $ry))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (i32.add (local.get $ry) (local.get $rh))))
        (local.set $offset (i32.shl (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $rx)) (i32.const 1)))
        (local.set $acc (v128.const i64x2 0 0))
        (local.set $x (i32.const 0))
        (block $vec_done
          (loop $vec
            (br_if $vec_done (i32.ge_u (local.get $x) (local.get $vector_end)))
            ;; A changed lane compares as −1: subtracting the mask counts it.
            (local.set $acc (i16x8.sub (local.get $acc)
              (i16x8.gt_s
                (i16x8.abs (i16x8.sub
                  (v128.load (i32.add (local.get $current) (local.get $offset)))
                  (v128.load (i32.add (local.get $previous) (local.get $offset)))))
                (local.get $limits))))
            (local.set $offset (i32.add (local.get $offset) (i32.const 16)))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $vec)))
        (local.set $acc (i32x4.extadd_pairwise_i16x8_u (local.get $acc)))
        (local.set $total (i32.add (local.get $total)
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
        ;; The last (width mod 8) pixels one by one.
        (block $tail_done
          (loop $tail
            (br_if $tail_done (i32.ge_u (local.get $x) (local.get $rw)))
            (local.set $d (i32.sub
              (i32.load16_u (i32.add (local.get $current) (local.get $offset)))
              (i32.load16_u (i32.add (local.get $previous) (local.get $offset)))))
            (if (i32.or (i32.gt_s (local.get $d) (local.get $limit))
                        (i32.lt_s (local.get $d) (i32.sub (i32.const 0) (local.get $limit))))
              (then (local.set $total (i32.add (local.get $total) (i32.const 1)))))
            (local.set $offset (i32.add (local.get $offset) (i32.const 2)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $tail)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows)))
    (local.get $total))
)
