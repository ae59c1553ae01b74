package com.example

import kotlin.math.max

/** A user. */
data class User(val name: String, val age: Int) {
    private val secret = 1

    /** Greets. */
    fun greet(): String {
        return "hi $name"
    }

    companion object {
        fun create(): User = User("a", 1)
    }
}

interface Repo {
    fun find(id: Int): User?
}

enum class Color { RED, GREEN }

object Registry {
    internal fun register(u: User) {
        println(u)
    }
}

typealias Users = List<User>

@Deprecated("no")
fun top(a: Int, b: Int): Int {
    return max(a, b)
}
