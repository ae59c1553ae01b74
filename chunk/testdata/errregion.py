def before():
    return 1


)))) ]]] ::: this is not Python
    <<< >>> ;;; }}}


def after(s):
    return s + "!"
