package com.example.shop;

import java.util.List;
import java.util.Map;

/**
 * A shopping cart.
 * Holds items.
 */
@Entity
public class Cart implements Iterable<Item> {
    private final List<Item> items;
    protected int version = 1;

    /** Creates an empty cart. */
    public Cart() {
        this.items = List.of();
    }

    // Adds an item.
    @Override
    public void add(Item item) {
        items.add(item);
    }

    private static int total(Map<String, Integer> prices) {
        return prices.size();
    }

    static class Entry {
        int qty;

        int qty() { return qty; }
    }
}

/** Something that has a price. */
interface Priced {
    int price();
}

enum Color {
    RED, GREEN;

    Color next() { return GREEN; }
}

record Point(int x, int y) {
    Point {
        assert x >= 0;
    }
}
