;; The per-frame hot loops of intensity-change detection in WebAssembly SIMD (16 bytes or 8 sums per step).
;; Integer arithmetic only, so the results equal the tests' plain reference loops and OpenCV's exactly.
;; Compiled by `npm run gen:kernel` into kernel.wasm.ts (committed; kernel.test.ts fails when they differ).
;;
;; Buffers live in the memory the caller gives (one per counter) at offsets it chooses, each padded by at least 64 bytes so the
;; vector loops may read and write a little past a row's end (what they write there is overwritten or unused).
(module
  (import "env" "memory" (memory 1))

  ;; In place: limited-range luma (16–235) → 0–255, equal to ffmpeg's gray conversion for all 256 inputs:
  ;; v = y − 16; out = clamp(v + ((v × 5386 + 2^14) >> 15), 0, 255) = clamp(round(v × 255 / 219)).
  (func $map_limited (export "map_limited") (param $p i32) (param $n i32)
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

  ;; OpenCV's cv2.blur(gray, (3, 3)) of a width × height frame into $out (width × height bytes): the 3×3 mean with
  ;; BORDER_REFLECT_101 (pixel −1 is pixel 1, pixel n is pixel n − 2; a 1-pixel dimension reads itself), rounded to
  ;; the nearest integer. Rounding: OpenCV computes ((sum + 4) × 7282) >> 16; here (sum × 3641 + 2^14) >> 15 in one
  ;; i16x8.q15mulr_sat_s. Both equal round(sum / 9) for every sum 0–2295 (kernel.test.ts checks all of them).
  ;; $cols holds one row's 16-bit column sums at cols[1..width], with cols[0] and cols[width + 1] mirrored.
  ;; With $map = 1 the frame is limited-range luma, mapped in place (map_limited) a row ahead of the sums, while
  ;; the row is in cache: one pass over the frame instead of two. The mapped part grows in whole vectors, so no
  ;; byte is mapped twice; afterwards the whole frame is mapped.
  (func (export "box_blur") (param $frame i32) (param $out i32) (param $cols i32) (param $width i32) (param $height i32)
    (param $map i32)
    (local $y i32) (local $x i32) (local $above i32) (local $row i32) (local $below i32) (local $target i32)
    (local $a v128) (local $b v128) (local $c v128) (local $col i32) (local $mirror_row i32) (local $mirror_col i32)
    (local $mapped i32) (local $need i32)
    (local.set $mapped (local.get $frame))
    ;; How far the reflection reaches: one row / column, or none when the picture has only one.
    (local.set $mirror_row (select (local.get $width) (i32.const 0) (i32.gt_u (local.get $height) (i32.const 1))))
    (local.set $mirror_col (select (i32.const 2) (i32.const 0) (i32.gt_u (local.get $width) (i32.const 1))))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $height)))
        ;; Rows up to the one below this one (or the last) must be mapped before their sums.
        (if (local.get $map)
          (then
            (local.set $need (i32.add (local.get $frame) (i32.mul (local.get $width)
              (select (i32.add (local.get $y) (i32.const 2)) (local.get $height)
                (i32.lt_u (i32.add (local.get $y) (i32.const 2)) (local.get $height))))))
            (if (i32.lt_u (local.get $mapped) (local.get $need))
              (then
                (call $map_limited (local.get $mapped) (i32.sub (local.get $need) (local.get $mapped)))
                (local.set $mapped (i32.add (local.get $mapped)
                  (i32.and (i32.add (i32.sub (local.get $need) (local.get $mapped)) (i32.const 15)) (i32.const -16))))))))
        (local.set $row (i32.add (local.get $frame) (i32.mul (local.get $y) (local.get $width))))
        (local.set $above
          (select (i32.sub (local.get $row) (local.get $width)) (i32.add (local.get $row) (local.get $mirror_row))
            (local.get $y)))
        (local.set $below
          (select (i32.add (local.get $row) (local.get $width)) (i32.sub (local.get $row) (local.get $mirror_row))
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
        ;; Reflected edges: cols[0] = column 1 = cols[2]; cols[width + 1] = column width − 2 = cols[width − 1].
        (i32.store16 (local.get $cols) (i32.load16_u offset=2 (i32.add (local.get $cols) (local.get $mirror_col))))
        (local.set $col (i32.add (local.get $cols) (i32.shl (local.get $width) (i32.const 1))))
        (i32.store16 offset=2 (local.get $col) (i32.load16_u (i32.sub (local.get $col) (local.get $mirror_col))))
        ;; Three neighbouring column sums, rounded means, 16 pixels per step.
        (local.set $target (i32.add (local.get $out) (i32.mul (local.get $y) (local.get $width))))
        (local.set $x (i32.const 0))
        (block $means_done
          (loop $means
            (br_if $means_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $col (i32.add (local.get $cols) (i32.shl (local.get $x) (i32.const 1))))
            (v128.store (i32.add (local.get $target) (local.get $x))
              (i8x16.narrow_i16x8_u
                (i16x8.q15mulr_sat_s
                  (i16x8.add (i16x8.add (v128.load (local.get $col)) (v128.load offset=2 (local.get $col)))
                    (v128.load offset=4 (local.get $col)))
                  (v128.const i16x8 3641 3641 3641 3641 3641 3641 3641 3641))
                (i16x8.q15mulr_sat_s
                  (i16x8.add (i16x8.add (v128.load offset=16 (local.get $col)) (v128.load offset=18 (local.get $col)))
                    (v128.load offset=20 (local.get $col)))
                  (v128.const i16x8 3641 3641 3641 3641 3641 3641 3641 3641))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $means)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))

  ;; Pixels of the ROI whose blurred values differ by more than $threshold (0–255) between two blurred frames.
  (func (export "count_changed") (param $current i32) (param $previous i32) (param $width i32)
    (param $rx i32) (param $ry i32) (param $rw i32) (param $rh i32) (param $threshold i32) (result i32)
    (local $y i32) (local $x i32) (local $offset i32) (local $total i32) (local $acc v128) (local $limits v128)
    (local $vector_end i32) (local $chunk_end i32) (local $d i32) (local $a v128) (local $b v128)
    (local.set $limits (i8x16.splat (local.get $threshold)))
    (local.set $vector_end (i32.and (local.get $rw) (i32.const -16)))
    (local.set $y (local.get $ry))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (i32.add (local.get $ry) (local.get $rh))))
        (local.set $offset (i32.add (i32.mul (local.get $y) (local.get $width)) (local.get $rx)))
        (local.set $x (i32.const 0))
        ;; Byte counters hold 255 steps at most: a row is counted in chunks of 255 × 16 pixels.
        (block $chunks_done
          (loop $chunks
            (br_if $chunks_done (i32.ge_u (local.get $x) (local.get $vector_end)))
            (local.set $chunk_end (i32.add (local.get $x) (i32.const 4080)))
            (if (i32.gt_u (local.get $chunk_end) (local.get $vector_end))
              (then (local.set $chunk_end (local.get $vector_end))))
            (local.set $acc (v128.const i64x2 0 0))
            (block $vec_done
              (loop $vec
                (br_if $vec_done (i32.ge_u (local.get $x) (local.get $chunk_end)))
                ;; |a − b| of unsigned bytes: one of the two saturating differences is 0. A changed lane compares as
                ;; −1 (0xff): subtracting the comparison counts it.
                (local.set $a (v128.load (i32.add (local.get $current) (local.get $offset))))
                (local.set $b (v128.load (i32.add (local.get $previous) (local.get $offset))))
                (local.set $acc (i8x16.sub (local.get $acc)
                  (i8x16.gt_u
                    (v128.or (i8x16.sub_sat_u (local.get $a) (local.get $b)) (i8x16.sub_sat_u (local.get $b) (local.get $a)))
                    (local.get $limits))))
                (local.set $offset (i32.add (local.get $offset) (i32.const 16)))
                (local.set $x (i32.add (local.get $x) (i32.const 16)))
                (br $vec)))
            (local.set $acc (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $acc))))
            (local.set $total (i32.add (local.get $total)
              (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc))))))
            (br $chunks)))
        ;; The last (width mod 16) pixels one by one.
        (block $tail_done
          (loop $tail
            (br_if $tail_done (i32.ge_u (local.get $x) (local.get $rw)))
            (local.set $d (i32.sub
              (i32.load8_u (i32.add (local.get $current) (local.get $offset)))
              (i32.load8_u (i32.add (local.get $previous) (local.get $offset)))))
            (if (i32.or (i32.gt_s (local.get $d) (local.get $threshold))
                        (i32.lt_s (local.get $d) (i32.sub (i32.const 0) (local.get $threshold))))
              (then (local.set $total (i32.add (local.get $total) (i32.const 1)))))
            (local.set $offset (i32.add (local.get $offset) (i32.const 1)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $tail)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows)))
    (local.get $total))

  ;; The changed mask of the ROI: 1 where the blurred values differ by more than $threshold, else 0; ROI-sized, row
  ;; stride $rw. 16 pixels per step; a row's last step may write a few bytes into the next mask row, which that row
  ;; then rewrites.
  (func (export "changed_mask") (param $current i32) (param $previous i32) (param $width i32)
    (param $rx i32) (param $ry i32) (param $rw i32) (param $rh i32) (param $threshold i32) (param $mask i32)
    (local $y i32) (local $x i32) (local $offset i32) (local $out i32) (local $limits v128) (local $a v128) (local $b v128)
    (local.set $limits (i8x16.splat (local.get $threshold)))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $rh)))
        (local.set $offset
          (i32.add (i32.mul (i32.add (local.get $ry) (local.get $y)) (local.get $width)) (local.get $rx)))
        (local.set $out (i32.add (local.get $mask) (i32.mul (local.get $y) (local.get $rw))))
        (local.set $x (i32.const 0))
        (block $vec_done
          (loop $vec
            (br_if $vec_done (i32.ge_u (local.get $x) (local.get $rw)))
            (local.set $a (v128.load (i32.add (local.get $current) (local.get $offset))))
            (local.set $b (v128.load (i32.add (local.get $previous) (local.get $offset))))
            (v128.store (i32.add (local.get $out) (local.get $x))
              (v128.and (v128.const i8x16 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
                (i8x16.gt_u
                  (v128.or (i8x16.sub_sat_u (local.get $a) (local.get $b)) (i8x16.sub_sat_u (local.get $b) (local.get $a)))
                  (local.get $limits))))
            (local.set $offset (i32.add (local.get $offset) (i32.const 16)))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $vec)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))

  ;; Morphology on masks of 0/1 bytes (morphology.ts explains the windows): erosion ($erode = 1) keeps a pixel when
  ;; its whole window, clipped to the mask, is 1; dilation sets it when any pixel of the window is 1.

  ;; Horizontal pass, $src → $dst (distinct buffers, rows of $width). Each row is copied into $row between pads of
  ;; the operation's neutral value (1 for erosion's AND, 0 for dilation's OR), which is exactly the clipping. The
  ;; k-wide window is then built by doubling: after the step with stride d every entry combines the 2d entries from
  ;; it, and a k-wide window is two overlapping windows of the largest power of two ≤ k. log2(k) vector passes a row.
  ;; $row needs room for width + k − 1 bytes and 32 more. Stores run past a row's end into the next $dst row, which
  ;; that row then rewrites (and past the last row into the buffer's padding).
  (func (export "morph_rows") (param $src i32) (param $dst i32) (param $row i32) (param $width i32) (param $height i32)
    (param $k i32) (param $before i32) (param $erode i32)
    (local $y i32) (local $x i32) (local $d i32) (local $length i32) (local $in i32) (local $out i32) (local $last i32)
    (local $a v128) (local $b v128)
    (local.set $length (i32.add (local.get $width) (i32.sub (local.get $k) (i32.const 1))))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $height)))
        (local.set $in (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $width))))
        (local.set $out (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $width))))
        (memory.fill (local.get $row) (local.get $erode) (local.get $before))
        (memory.copy (i32.add (local.get $row) (local.get $before)) (local.get $in) (local.get $width))
        (memory.fill (i32.add (i32.add (local.get $row) (local.get $before)) (local.get $width)) (local.get $erode)
          (i32.sub (i32.sub (local.get $k) (i32.const 1)) (local.get $before)))
        ;; Doubling, in place and ascending: a step reads entries x and x + d before any later step writes them.
        (local.set $d (i32.const 1))
        (block $doubling_done
          (loop $doubling
            (br_if $doubling_done (i32.gt_u (i32.shl (local.get $d) (i32.const 1)) (local.get $k)))
            (local.set $last (i32.sub (local.get $length) (local.get $d)))
            (local.set $x (i32.const 0))
            (block $pass_done
              (loop $pass
                (br_if $pass_done (i32.ge_s (local.get $x) (local.get $last)))
                (local.set $a (v128.load (i32.add (local.get $row) (local.get $x))))
                (local.set $b (v128.load (i32.add (i32.add (local.get $row) (local.get $x)) (local.get $d))))
                (v128.store (i32.add (local.get $row) (local.get $x))
                  (select (v128.and (local.get $a) (local.get $b)) (v128.or (local.get $a) (local.get $b))
                    (local.get $erode)))
                (local.set $x (i32.add (local.get $x) (i32.const 16)))
                (br $pass)))
            (local.set $d (i32.shl (local.get $d) (i32.const 1)))
            (br $doubling)))
        ;; The k-wide window at x: entries x and x + k − d, each covering d.
        (local.set $last (i32.sub (local.get $k) (local.get $d)))
        (local.set $x (i32.const 0))
        (block $final_done
          (loop $final
            (br_if $final_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $a (v128.load (i32.add (local.get $row) (local.get $x))))
            (local.set $b (v128.load (i32.add (i32.add (local.get $row) (local.get $x)) (local.get $last))))
            (v128.store (i32.add (local.get $out) (local.get $x))
              (select (v128.and (local.get $a) (local.get $b)) (v128.or (local.get $a) (local.get $b))
                (local.get $erode)))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $final)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))

  ;; Adds a mask row to the 16-bit column counts ($subtract = 0) or takes it away ($subtract = 1), 8 columns a step.
  (func $add_row (param $counts i32) (param $row i32) (param $width i32) (param $subtract i32)
    (local $x i32) (local $c i32) (local $v v128)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $x) (local.get $width)))
        (local.set $c (i32.add (local.get $counts) (i32.shl (local.get $x) (i32.const 1))))
        (local.set $v (v128.load8x8_u (i32.add (local.get $row) (local.get $x))))
        (v128.store (local.get $c)
          (select (i16x8.sub (v128.load (local.get $c)) (local.get $v)) (i16x8.add (v128.load (local.get $c)) (local.get $v))
            (local.get $subtract)))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (br $next))))

  ;; Vertical pass, $src → $dst (distinct): one running count of 1s per column over the window [y − before,
  ;; y + after] clipped to the mask, kept in 16-bit lanes (a count never exceeds the height). $counts needs room for
  ;; width + 8 counts.
  (func (export "morph_columns") (param $src i32) (param $dst i32) (param $counts i32) (param $width i32) (param $height i32)
    (param $k i32) (param $before i32) (param $erode i32)
    (local $after i32) (local $y i32) (local $x i32) (local $j i32) (local $last i32) (local $top i32) (local $bottom i32)
    (local $out i32) (local $cells v128) (local $v v128) (local $kept v128)
    (local.set $after (i32.sub (i32.sub (local.get $k) (i32.const 1)) (local.get $before)))
    (memory.fill (local.get $counts) (i32.const 0) (i32.shl (i32.add (local.get $width) (i32.const 8)) (i32.const 1)))
    ;; The window of row 0: rows 0 … min(after, height − 1).
    (local.set $last (select (local.get $after) (i32.sub (local.get $height) (i32.const 1))
      (i32.lt_u (local.get $after) (local.get $height))))
    (block $first_done
      (loop $first
        (br_if $first_done (i32.gt_u (local.get $j) (local.get $last)))
        (call $add_row (local.get $counts) (i32.add (local.get $src) (i32.mul (local.get $j) (local.get $width)))
          (local.get $width) (i32.const 0))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $first)))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $y) (local.get $height)))
        ;; Cells of the clipped window: min(y + after, height − 1) − max(y − before, 0) + 1.
        (local.set $bottom (i32.add (local.get $y) (local.get $after)))
        (if (i32.ge_u (local.get $bottom) (local.get $height))
          (then (local.set $bottom (i32.sub (local.get $height) (i32.const 1)))))
        (local.set $top (i32.sub (local.get $y) (local.get $before)))
        (if (i32.lt_s (local.get $top) (i32.const 0)) (then (local.set $top (i32.const 0))))
        (local.set $cells (i16x8.splat (i32.add (i32.sub (local.get $bottom) (local.get $top)) (i32.const 1))))
        (local.set $out (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $width))))
        (local.set $x (i32.const 0))
        (block $vec_done
          (loop $vec
            (br_if $vec_done (i32.ge_u (local.get $x) (local.get $width)))
            (local.set $v (v128.load (i32.add (local.get $counts) (i32.shl (local.get $x) (i32.const 1)))))
            (local.set $kept
              (v128.and (v128.const i16x8 1 1 1 1 1 1 1 1)
                (select (i16x8.eq (local.get $v) (local.get $cells))
                  (i16x8.ne (local.get $v) (v128.const i64x2 0 0))
                  (local.get $erode))))
            (v128.store64_lane 0 (i32.add (local.get $out) (local.get $x))
              (i8x16.narrow_i16x8_u (local.get $kept) (local.get $kept)))
            (local.set $x (i32.add (local.get $x) (i32.const 8)))
            (br $vec)))
        ;; Slide the window down one row.
        (if (i32.lt_u (i32.add (i32.add (local.get $y) (local.get $after)) (i32.const 1)) (local.get $height))
          (then (call $add_row (local.get $counts)
            (i32.add (local.get $src)
              (i32.mul (i32.add (i32.add (local.get $y) (local.get $after)) (i32.const 1)) (local.get $width)))
            (local.get $width) (i32.const 0))))
        (if (i32.ge_s (i32.sub (local.get $y) (local.get $before)) (i32.const 0))
          (then (call $add_row (local.get $counts)
            (i32.add (local.get $src) (i32.mul (i32.sub (local.get $y) (local.get $before)) (local.get $width)))
            (local.get $width) (i32.const 1))))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $rows))))

  ;; The number of 1 bytes among $n bytes of 0/1.
  (func (export "count_ones") (param $p i32) (param $n i32) (result i32)
    (local $end i32) (local $acc v128) (local $total i32)
    (local.set $end (i32.add (local.get $p) (i32.and (local.get $n) (i32.const -16))))
    (block $vec_done
      (loop $vec
        (br_if $vec_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (v128.load (local.get $p))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vec)))
    (local.set $total
      (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
        (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
    (local.set $end (i32.add (local.get $end) (i32.and (local.get $n) (i32.const 15))))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $total (i32.add (local.get $total) (i32.load8_u (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $tail)))
    (local.get $total))
)
