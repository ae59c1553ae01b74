open Printf

(** A shape. *)
type shape =
  | Circle of float
  | Square of float

(** Area of a shape. *)
let area s =
  match s with
  | Circle r -> 3.14 *. r *. r
  | Square a -> a *. a

let rec fact n = if n = 0 then 1 else n * fact (n - 1)

module Geo = struct
  let origin = (0, 0)
  let dist (x, y) = sqrt (float (x * x + y * y))
end

module type S = sig
  val f : int -> int
end

let () = printf "%f\n" (area (Circle 1.0))
