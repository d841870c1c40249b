package com.acme.cart;

import java.math.BigDecimal;
import java.util.Objects;

/** One line of a shopping cart: a product and how many of it. */
public final class CartLine {
    private final String sku;
    private final BigDecimal unitPrice;
    private int quantity;

    public CartLine(String sku, BigDecimal unitPrice, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        this.sku = Objects.requireNonNull(sku);
        this.unitPrice = Objects.requireNonNull(unitPrice);
        this.quantity = quantity;
    }

    public String getSku() {
        return sku;
    }

    public BigDecimal getUnitPrice() {
        return unitPrice;
    }

    public int getQuantity() {
        return quantity;
    }

    public void add(int more) {
        if (more <= 0) {
            throw new IllegalArgumentException("more must be positive: " + more);
        }
        quantity += more;
    }

    /** Removes up to fewer items; returns how many are left. */
    public int remove(int fewer) {
        quantity = Math.max(0, quantity - fewer);
        return quantity;
    }

    public BigDecimal total() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof CartLine)) return false;
        CartLine other = (CartLine) o;
        return quantity == other.quantity && sku.equals(other.sku)
                && unitPrice.compareTo(other.unitPrice) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sku, unitPrice.stripTrailingZeros(), quantity);
    }

    @Override
    public String toString() {
        return quantity + " x " + sku + " @ " + unitPrice;
    }
}
