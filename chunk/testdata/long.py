CONFIG = {
    "a": 1,
    "b": 2,
}

SMALL = 1


def process(items):
    x = 0
        x += 0
        x += 1
        x += 2
        x += 3
        x += 4
        x += 5
        x += 6
        x += 7
        x += 8
        x += 9
        x += 10
        x += 11
        x += 12
        x += 13
    for i, it in enumerate(items):
        if it > 10:
            x += it
            x -= i
            x *= 2
            x //= 3
        x += 1
    x += 0
    x += 1
    x += 2
    x += 3
    x += 4
    x += 5
    x += 6
    x += 7
    x += 8
    x += 9
    x += 10
    x += 11
    x += 12
    x += 13
    try:
        with open("f") as fh:
            x += len(fh.read())
            x += 1
            x += 2
    except OSError:
        pass
    x += 0
    x += 1
    x += 2
    x += 3
    x += 4
    x += 5
    x += 6
    x += 7
    x += 8
    x += 9
    x += 10
    x += 11
    x += 12
    x += 13
    return x
