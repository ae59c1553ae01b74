<?php

namespace App\Models;

use App\Contracts\Priced;
use Illuminate\Support\Collection;

/**
 * A product.
 */
#[Entity]
class Product implements Priced
{
    private int $price = 0;
    public string $name;

    /** Creates a product. */
    public function __construct(string $name)
    {
        $this->name = $name;
    }

    protected function price(): int
    {
        return $this->price;
    }
}

interface Shippable
{
    public function weight(): float;
}

trait Discounts
{
    public function discount(): int { return 0; }
}

enum Suit: string
{
    case Hearts = 'H';
}

function helper($x)
{
    return $x * 2;
}
