#include <string>
#include <vector>

namespace geo {

/// A shape.
class Shape {
public:
    virtual ~Shape() = default;
    /// Area of the shape.
    virtual double area() const = 0;
    std::string name;

private:
    int id_;
    int id() const { return id_; }
};

struct Circle : public Shape {
    double r;
    double area() const override { return 3.14 * r * r; }
};

template <typename T>
T max_of(const std::vector<T>& v) {
    T best = v[0];
    for (const auto& x : v) {
        if (x > best) best = x;
    }
    return best;
}

double Shape::perimeter() const {
    return 0;
}

}  // namespace geo

int main() {
    return 0;
}
