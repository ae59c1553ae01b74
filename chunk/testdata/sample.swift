import Foundation

/// A vehicle.
protocol Vehicle {
    func drive()
}

/// A car.
class Car: Vehicle {
    var speed: Int = 0
    private let wheels = 4

    init(speed: Int) {
        self.speed = speed
    }

    /// Drives.
    func drive() {
        print("vroom")
    }
}

struct Point {
    var x: Double
    func length() -> Double { return x }
}

enum Direction {
    case north, south
}

extension Car {
    func honk() {}
}

typealias Speed = Int

func topLevel(a: Int) -> Int {
    return a
}
