package com.acme.cart;

import java.math.BigDecimal;
import java.util.Objects;

/** One line of a shopping cart: a product and how many of it. */
public final class CartLine {
    private final String sku;
    private final BigDecimal unitPrice;
    private int count;

    public CartLine(String sku, BigDecimal unitPrice, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        this.sku = Objects.requireNonNull(sku);
        this.unitPrice = Objects.requireNonNull(unitPrice);
        this.count = count;
    }

    public String getSku() {
        return sku;
    }

    public BigDecimal getUnitPrice() {
        return unitPrice;
    }

    public int getCount() {
        return count;
    }

    public void add(int more) {
        if (more <= 0) {
            throw new IllegalArgumentException("more must be positive: " + more);
        }
        count += more;
    }

    /** Removes up to fewer items; returns how many are left. */
    public int remove(int fewer) {
        count = Math.max(0, count - fewer);
        return count;
    }

    public BigDecimal total() {
        return unitPrice.multiply(BigDecimal.valueOf(count));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CartLine)) return false;
        CartLine other = (CartLine) o;
        return count == other.count && sku.equals(other.sku)
                && unitPrice.compareTo(other.unitPrice) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sku, unitPrice.stripTrailingZeros(), count);
    }

    @Override
    public String toString() {
        return count + " x " + sku + " @ " + unitPrice;
    }
}
