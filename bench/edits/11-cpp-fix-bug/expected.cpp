// session_store.cpp - in-memory login sessions for the admin console.
//
// Sessions are looked up on every request, so the store is a hash map
// keyed by token. Expiry is sliding: each successful lookup pushes the
// deadline out again. A background thread calls evictExpired() once a
// minute; lookups also refuse expired sessions, so eviction is only about
// memory, never about correctness.

#include <chrono>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace admin {

using Clock = std::chrono::steady_clock;

struct Session {
    std::string user;
    std::vector<std::string> roles;
    Clock::time_point created;
    Clock::time_point expires;
};

class SessionStore {
public:
    SessionStore(std::chrono::seconds idleTimeout, std::size_t maxPerUser)
        : idleTimeout_(idleTimeout), maxPerUser_(maxPerUser), rng_(std::random_device{}()) {}

    // Returns the new session's token. When the user already has
    // maxPerUser sessions, the oldest one is logged out first.
    std::string create(const std::string& user, std::vector<std::string> roles,
                       Clock::time_point now) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (countForUser(user) >= maxPerUser_) {
            removeOldestOf(user);
        }
        std::string token = newToken();
        sessions_[token] = Session{user, std::move(roles), now, now + idleTimeout_};
        return token;
    }

    // Looks a token up and, if it is still valid, extends its deadline.
    std::optional<Session> lookup(const std::string& token, Clock::time_point now) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = sessions_.find(token);
        if (it == sessions_.end() || it->second.expires <= now) {
            return std::nullopt;
        }
        it->second.expires = now + idleTimeout_;
        return it->second;
    }

    bool logout(const std::string& token) {
        std::lock_guard<std::mutex> lock(mutex_);
        return sessions_.erase(token) > 0;
    }

    // Logs a user out everywhere, e.g. after a password change.
    std::size_t logoutUser(const std::string& user) {
        std::lock_guard<std::mutex> lock(mutex_);
        std::size_t removed = 0;
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (it->second.user == user) {
                it = sessions_.erase(it);
                ++removed;
            } else {
                ++it;
            }
        }
        return removed;
    }

    // Drops every expired session and returns the users they belonged to,
    // for the audit log.
    std::vector<std::string> evictExpired(Clock::time_point now) {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<std::string> evicted;
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (it->second.expires <= now) {
                evicted.push_back(it->second.user);
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
        return evicted;
    }

    std::size_t size() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return sessions_.size();
    }

private:
    std::size_t countForUser(const std::string& user) const {
        std::size_t n = 0;
        for (const auto& entry : sessions_) {
            if (entry.second.user == user) {
                ++n;
            }
        }
        return n;
    }

    void removeOldestOf(const std::string& user) {
        auto oldest = sessions_.end();
        for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
            if (it->second.user != user) {
                continue;
            }
            if (oldest == sessions_.end() || it->second.created < oldest->second.created) {
                oldest = it;
            }
        }
        if (oldest != sessions_.end()) {
            sessions_.erase(oldest);
        }
    }

    // 128 random bits as 32 hex digits. mt19937_64 is not a CSPRNG; the
    // production build swaps in the platform's secure generator here.
    std::string newToken() {
        static const char digits[] = "0123456789abcdef";
        std::string token;
        token.reserve(32);
        for (int half = 0; half < 2; ++half) {
            std::uint64_t bits = rng_();
            for (int i = 0; i < 16; ++i) {
                token.push_back(digits[bits & 0xf]);
                bits >>= 4;
            }
        }
        return token;
    }

    std::chrono::seconds idleTimeout_;
    std::size_t maxPerUser_;
    std::mt19937_64 rng_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Session> sessions_;
};

}  // namespace admin

// A small self-check, run by `make check-sessions`.
int main() {
    using namespace std::chrono_literals;
    admin::SessionStore store(30min, 3);
    auto t0 = admin::Clock::now();

    std::vector<std::string> tokens;
    for (const char* user : {"ana", "ben", "chen", "dora", "emil"}) {
        tokens.push_back(store.create(user, {"viewer"}, t0));
    }
    std::string kept = store.create("ana", {"admin"}, t0 + 20min);

    auto evicted = store.evictExpired(t0 + 40min);
    if (evicted.size() != 5 || store.size() != 1) {
        std::cerr << "evictExpired: expected 5 evicted and 1 left, got " << evicted.size()
                  << " and " << store.size() << "\n";
        return 1;
    }
    if (!store.lookup(kept, t0 + 40min)) {
        std::cerr << "the fresh session was evicted\n";
        return 1;
    }
    std::cout << "session store ok\n";
    return 0;
}
