-- Schema for the shop's order database (PostgreSQL 15+).
--
-- Money is stored in cents as integers; prices never pass through floating
-- point. Every table carries created_at so support can reconstruct what a
-- customer saw at a given time.

BEGIN;

CREATE TABLE customers (
    id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email           text NOT NULL,
    display_name    text NOT NULL,
    marketing_ok    boolean NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz
);

-- E-mail addresses are compared case-insensitively, and a deleted account
-- frees its address for a new sign-up.
CREATE UNIQUE INDEX customers_email_live
    ON customers (lower(email))
    WHERE deleted_at IS NULL;

CREATE TABLE addresses (
    id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     integer NOT NULL REFERENCES customers (id),
    label           text NOT NULL DEFAULT 'home',
    line1           text NOT NULL,
    line2           text,
    postal_code     text NOT NULL,
    city            text NOT NULL,
    country         char(2) NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX addresses_customer ON addresses (customer_id);

CREATE TABLE products (
    id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    sku             text NOT NULL UNIQUE,
    title           text NOT NULL,
    price_cents     integer NOT NULL CHECK (price_cents >= 0),
    stock           integer NOT NULL DEFAULT 0 CHECK (stock >= 0),
    active          boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TYPE order_status AS ENUM ('cart', 'placed', 'paid', 'shipped', 'cancelled');

CREATE TABLE orders (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     integer NOT NULL REFERENCES customers (id),
    shipping_to     integer REFERENCES addresses (id),
    status          order_status NOT NULL DEFAULT 'cart',
    total_cents     integer NOT NULL DEFAULT 0,
    placed_at       timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX orders_customer_recent ON orders (customer_id, created_at DESC);
CREATE INDEX orders_status ON orders (status) WHERE status IN ('placed', 'paid');

CREATE TABLE order_items (
    order_id        bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    product_id      integer NOT NULL REFERENCES products (id),
    quantity        integer NOT NULL CHECK (quantity > 0),
    -- The price at the time of purchase, not the product's current price.
    unit_cents      integer NOT NULL CHECK (unit_cents >= 0),
    PRIMARY KEY (order_id, product_id)
);

CREATE TABLE payments (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id        bigint NOT NULL REFERENCES orders (id),
    provider        text NOT NULL,
    provider_ref    text NOT NULL,
    amount_cents    integer NOT NULL,
    succeeded       boolean NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_ref)
);

CREATE TABLE support_tickets (
    id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     integer REFERENCES customers (id),
    order_id        bigint REFERENCES orders (id),
    subject         text NOT NULL,
    body            text NOT NULL,
    closed          boolean NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE loyalty_ledger (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    customer_id     integer NOT NULL REFERENCES customers (id),
    points          integer NOT NULL,
    reason          text NOT NULL,
    order_id        bigint REFERENCES orders (id),
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX loyalty_ledger_customer ON loyalty_ledger (customer_id);

-- Lifetime value per customer, for the support console's side panel.
CREATE VIEW customer_summary AS
SELECT c.id AS customer_id,
       c.email,
       count(o.id) FILTER (WHERE o.status IN ('paid', 'shipped')) AS orders_paid,
       coalesce(sum(o.total_cents) FILTER (WHERE o.status IN ('paid', 'shipped')), 0)
           AS lifetime_cents,
       max(o.placed_at) AS last_order_at
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.id
WHERE c.deleted_at IS NULL
GROUP BY c.id, c.email;

-- Current loyalty balance; the ledger is append-only, so the balance is
-- always a sum and never stored.
CREATE FUNCTION loyalty_balance(p_customer_id integer)
RETURNS integer
LANGUAGE sql STABLE
AS $$
    SELECT coalesce(sum(points), 0)::integer
    FROM loyalty_ledger
    WHERE customer_id = p_customer_id;
$$;

-- Recomputes an order's total from its items. Called by the checkout
-- service after every change to the cart.
CREATE FUNCTION refresh_order_total(p_order_id bigint)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
    v_total integer;
BEGIN
    SELECT coalesce(sum(quantity * unit_cents), 0)
    INTO v_total
    FROM order_items
    WHERE order_id = p_order_id;

    UPDATE orders SET total_cents = v_total WHERE id = p_order_id;
    RETURN v_total;
END;
$$;

COMMIT;
