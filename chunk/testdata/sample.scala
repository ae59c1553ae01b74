package example

import scala.collection.mutable

/** A shape. */
trait Shape {
  def area: Double
}

/** A circle. */
case class Circle(r: Double) extends Shape {
  private val pi = 3.14

  def area: Double = pi * r * r

  override def toString: String = {
    s"Circle($r)"
  }
}

object Main {
  def main(args: Array[String]): Unit = {
    println(Circle(1).area)
  }
}

enum Color {
  case Red, Green
}

type Name = String
